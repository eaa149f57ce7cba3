"""Citations across versions: what changed between two versions, and where a quote is now.

- :mod:`ipsis.history.diff`: :func:`diff_documents` (sections added, removed, revoked, amended,
  moved between two versions);
- :mod:`ipsis.history.carry`: :func:`carry` re-anchors a citation located in one version in a
  target version (``unchanged``, ``amended``, ``revoked``, ``moved``, ``gone``);
- :mod:`ipsis.history.affected`: the stored runs whose citations a new version touches.
"""

from ipsis.history.diff import CHANGES, DocumentDiff, SectionChange, comparable_text, diff_documents

__all__ = ["CHANGES", "DocumentDiff", "SectionChange", "comparable_text", "diff_documents"]
