"""The field's own formats: Akoma Ntoso export, work identifiers (LexML URN, ELI), W3C Web Annotations."""
