"""Running and recording: pytest items, what a run selects, the records, crashes and timeouts,
reproductions, shards, coverage."""
