"""Batch verification of many records on a Dask cluster (``ipsis verify --engine dask``).

:mod:`ipsis.batch.inputs` reads the input shards and partitions the records by source (pure,
no Dask); :mod:`ipsis.batch.engine` runs the partitions on a cluster and writes the result
shards and the run manifest. Dask comes with the ``dask`` extra.
"""

from __future__ import annotations

from ipsis.batch.inputs import Partition, Shard, expand_inputs, partition_records, read_shards

__all__ = ["Partition", "Shard", "expand_inputs", "partition_records", "read_shards"]
