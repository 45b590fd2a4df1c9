"""The conformance suites and their helpers. No framework is imported here: only adapters do."""
