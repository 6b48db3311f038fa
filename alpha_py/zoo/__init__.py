"""Zoo layer: blocks and nets built from alpha.nn units (filled in by the training issue)."""
