"""Keras 3 on the torch backend: a torch.compile'd function that calls keras.ops.pad (or
keras.ops.diff, or keras.ops.cond) recompiles on every call, with the same shapes. Those three
ops make a keras Operation on every eager call, and its automatic name bumps a global counter
(keras.src.utils.naming.uniquify: object_name_uids), which dynamo guards on; the graph's own
call changes it. Past torch._dynamo.config.recompile_limit (8) the function then runs eagerly.
Run: KERAS_BACKEND=torch python adapters/torch/repro/keras_pad_recompiles.py"""
import keras
import torch
import torch._dynamo.utils

step = torch.compile(lambda x: keras.ops.pad(x, [[1, 1]]) * 2)
x = torch.ones(3)
for _ in range(10):
    step(x)
print("graphs compiled for 10 calls of one shape:", torch._dynamo.utils.counters["stats"]["unique_graphs"])
