"""paddle.matmul (and F.linear) of bfloat16 tensors inside paddle.jit.to_static(full_graph=True)
kills the process with SIGSEGV when the program runs; eagerly it raises RuntimeError (no bfloat16
matmul kernel on CPU), and mm, bmm, dot, einsum and tensordot raise TypeError inside to_static."""
import paddle


def program(a, b):
    return paddle.matmul(a, b)


a = paddle.ones([3], dtype="float32").astype("bfloat16")
print(paddle.jit.to_static(program, full_graph=True)(a, a))  # the process dies here (SIGSEGV)
