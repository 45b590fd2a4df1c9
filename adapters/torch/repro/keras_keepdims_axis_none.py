"""Keras 3 on the torch backend: keras.ops.sum, max, min, prod, amax and amin drop keepdims where
axis is None, and return a scalar where NumPy, jax and Keras' other backends keep every axis with
length 1 (keras.ops.mean keeps it). Each one's `axis is None` branch calls torch.sum(x) (or
torch.max(x), ...) without keepdim; fixed upstream after keras 3.15.1 by
https://github.com/keras-team/keras/pull/23535.
Run: KERAS_BACKEND=torch python adapters/torch/repro/keras_keepdims_axis_none.py"""
import keras
import numpy as np

x = np.arange(24, dtype="float32").reshape(2, 3, 4)
print("numpy:", np.sum(x, axis=None, keepdims=True).shape)
for name in ("sum", "max", "min", "prod", "amax", "amin", "mean"):
    shape = tuple(getattr(keras.ops, name)(x, axis=None, keepdims=True).shape)
    print(f"keras.ops.{name} on {keras.backend.backend()}:", shape)
