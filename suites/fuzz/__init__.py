"""Random programs over the vocabulary, judged by the suite's judges (docs/fuzzing.md)."""
