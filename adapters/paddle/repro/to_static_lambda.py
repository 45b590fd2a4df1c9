"""paddle.jit.to_static(full_graph=True) of a lambda raises IndexError ("list index out of range"
in dy2static/origin_info.py) at its first call; the same lambda called from a named function
translates."""
import paddle

double_exp = lambda x: paddle.exp(x) * 2  # noqa: E731


def program(x):
    return double_exp(x)


print(paddle.jit.to_static(program, full_graph=True)(paddle.ones([2])).numpy())  # [5.4365635 5.4365635]
print(paddle.jit.to_static(double_exp, full_graph=True)(paddle.ones([2])).numpy())  # raises IndexError
