"""The card layer: the catalog of characters, their abilities, and the hooks they act through."""
