"""What each Keras backend runs, op by op: the keras adapter's dtype declarations, one table per
backend (the backend is fixed when keras is imported, and what works depends on it)."""
from adapters.backends import TF_CONV_DTYPES, TF_MATMUL_DTYPES
from adapters.base import DTYPES, FLOATS, OPS, WIDE_UNSIGNED, dtypes_except, lacking
from adapters.keras.elementwise import KERAS_ELEMENTWISE_DTYPES
from adapters.keras.initializers import KERAS_INITIALIZER_DTYPES
from adapters.keras.optimizers import OPTIMIZER_DTYPES
from vocabulary import SET_OPS
from vocabulary.linalg import DECOMPOSITION_OPS, FACTORED_OPS
from vocabulary.params import MULTIHEAD_OPS

# Measured with `python -m suites coverage --check` per backend (see docs/adding-an-adapter.md).
BACKEND_DTYPES = {
    "tensorflow": {"*": DTYPES, "convolve": (),  # keras.ops promotes integers and bools where TF's own ops refuse
                   **dict.fromkeys(("add", "sub", "mul", "maximum", "minimum", "pow", "relu", "round",
                                    "scatter_add", "greater", "topk", "topk_indices", "unique", *SET_OPS,
                                    "einsum", "scatter_reduce", "index_add", "searchsorted"),
                                   dtypes_except("bool")),
                   "neg": dtypes_except("uint8", *WIDE_UNSIGNED, "bool"), "arange": dtypes_except("uint8", "bool"),
                   "sign": dtypes_except("uint64", "bool"), "tile": dtypes_except("uint16"),
                   "linspace": dtypes_except("bool"),
                   "masked_softmax": dtypes_except("int8"),  # Keras reads an int8 dtype as a quantisation policy
                   **dict.fromkeys(("sigmoid", "softmax", "log_softmax"), FLOATS),
                   **dict.fromkeys(("conv1d", "conv2d"), TF_CONV_DTYPES),
                   **dict.fromkeys(("lstm", "gru"), ("float16", "float32", "float64")),
                   **dict.fromkeys(("linear", "gelu", "embedding", "normalize"), FLOATS),
                   **dict.fromkeys(("layer_norm", "batch_norm", "batch_norm_stats"), dtypes_except("int8")),
                   **dict.fromkeys(MULTIHEAD_OPS, FLOATS),
                   "dot_product_attention": TF_MATMUL_DTYPES,
                   **dict.fromkeys(("max_pool2d", "max_pool1d"), dtypes_except("uint32", "uint64", "bool")),
                   **dict.fromkeys(("avg_pool2d", "avg_pool1d"), FLOATS),
                   # tf.linalg's: MatrixDeterminant, LogMatrixDeterminant, MatrixSolve, Cholesky, SelfAdjointEigV2,
                   # Svd: no float16 CPU kernel (MatrixInverse and Qr have one)
                   **dict.fromkeys(("det", "slogdet", "solve", "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv",
                                    "eigh", "svd"), ("float32", "float64")),
                   **dict.fromkeys(("inv", "qr"), ("float16", "float32", "float64"))},
    "jax": {"*": DTYPES, "convolve": (),
            **dict.fromkeys(("sub", "neg", "round", "sign", "softmax", "log_softmax", "scatter_add", "one_hot",
                             "scatter_nd", "index_add", "arange"), dtypes_except("bool")),
            "sigmoid": FLOATS, "masked_softmax": dtypes_except("int8"),
            **dict.fromkeys(("lstm", "gru"), ("float32", "float64")),
            **dict.fromkeys(("linear", "embedding", "normalize"), FLOATS),
            **dict.fromkeys(("layer_norm", "batch_norm", "batch_norm_stats"), dtypes_except("int8")),
            **dict.fromkeys(MULTIHEAD_OPS, FLOATS),
            **dict.fromkeys(("avg_pool2d", "avg_pool1d"), dtypes_except("bool")),
            # LAPACK's getrf, potrf, syevd, gesdd: no half
            **dict.fromkeys(("slogdet", "inv", "solve", "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv",
                             *DECOMPOSITION_OPS),
                            dtypes_except("float16", "bfloat16"))},
    "torch": {"*": DTYPES, "convolve": (),
              **dict.fromkeys(("sub", "neg", "pow", "relu", "round", "conv1d", "conv2d", "topk", "topk_indices",
                               "einsum", "searchsorted", "arange", "linspace"), dtypes_except("bool")),
              **dict.fromkeys(("softmax", "log_softmax"), FLOATS), "masked_softmax": dtypes_except("int8"),
              # building the recurrent layers in half precision needs QR (geqrf) on CPU
              **dict.fromkeys(("lstm", "gru"), ("float32", "float64")),
              **dict.fromkeys(("linear", "gelu", "layer_norm", "embedding", "dot_product_attention", "max_pool1d"),
                              FLOATS),
              "max_pool2d": dtypes_except("bool"), **dict.fromkeys(("avg_pool2d", "avg_pool1d"), FLOATS + ("int64",)),
              **dict.fromkeys(("batch_norm", "batch_norm_stats"), dtypes_except("int8")),
              **dict.fromkeys(MULTIHEAD_OPS, FLOATS),
              # "lu_cpu", "cholesky_cpu" not implemented for 'Half'
              **dict.fromkeys(FACTORED_OPS, ("float32", "float64"))},
}
for _backend, _table in BACKEND_DTYPES.items():  # keras.ops has no bmm, vecdot, matrix_power; no bool cross; its
    # optimizers' and initializers' own
    _table.update(bmm=(), vecdot=(), matrix_power=(), cross=dtypes_except("bool"), **OPTIMIZER_DTYPES[_backend],
                  **KERAS_INITIALIZER_DTYPES[_backend], **KERAS_ELEMENTWISE_DTYPES[_backend])
# Keras' torch backend has no uint64 ("Unsupported dtype for PyTorch"); it holds uint16 in torch.int32 and uint32 in
# torch.int64 (its backend/torch/core.py), so those run, in other dtypes
BACKEND_DTYPES["torch"] = lacking({**BACKEND_DTYPES["torch"], **dict.fromkeys(("avg_pool2d", "avg_pool1d"),
                                                                              FLOATS + ("uint32", "int64"))},
                                  ("uint64",), OPS)
