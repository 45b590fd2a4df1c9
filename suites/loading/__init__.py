"""Loading specs: safe YAML, the schema, the checks a schema cannot make, and the differences entries."""
