"""PaddlePaddle 3.3.1 (CPU) dies with SIGSEGV when it runs in a process that imported TensorFlow
2.21.0 (CPU) before it; imported first, both work. Run: python
adapters/paddle/repro/import_after_tensorflow.py (exit status 139, or -11 from a parent)."""
import paddle
import tensorflow  # noqa: F401

print(paddle.to_tensor([1.0, 2.0]).numpy().sum())  # never reached: the process segfaults first
