"""Whether the jax adapter runs with JAX's 64-bit types: on by default (float64 and int64 are
dtypes under test); PARITY_JAX_X64=0 leaves JAX's default, 32 bits, and registers the adapter as
jax-32. Read once, where the adapter and its collectives' processes configure JAX."""
import os

X64 = os.environ.get("PARITY_JAX_X64", "1") != "0"
