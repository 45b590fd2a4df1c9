"""A torch adapter whose compiled path is wrong and whose eager path is right, for
tests/test_modes.py: its compiler is torch.compile with a graph pass that computes the
transcendental functions in float16 and casts back, as a "fast math" pass that trades precision
for speed would. Eager, every op is torch's own."""
from adapters.base import own_code
from adapters.torch import TorchAdapter


class FastMathCompiler(TorchAdapter):
    name = "fast-math-compiler"

    def compile(self, fn):
        return self.torch.compile(own_code(fn), backend=self._fast_math)

    def compile_grad(self, fn, wrt):
        compiled = self.compile(fn)
        return lambda args, cotangent: self.grad(compiled, args, wrt, cotangent)

    def _fast_math(self, graph_module, example_inputs):
        """The compiler backend: dynamo's FX graph with exp, tanh and sigmoid in half precision."""
        torch = self.torch
        for node in graph_module.graph.nodes:
            if node.op == "call_function" and node.target in (torch.exp, torch.tanh, torch.sigmoid):
                node.target = in_half(node.target)
        graph_module.recompile()
        return graph_module.forward


def in_half(function):
    def lowered(x, *args, **kwargs):
        return function(x.half(), *args, **kwargs).to(x.dtype)

    lowered.__name__ = f"{function.__name__}_in_half"
    return lowered


class GraphBreakingFastMath(FastMathCompiler):
    """The same wrong compiler, whose exp first breaks the graph, as a call dynamo cannot trace
    does: the frames above the break (Parity's own Context.evaluate, which every item of a process
    runs) then compile as frames of their own, where torch.compile keeps at most 8 entries."""
    name = "graph-breaking-fast-math"

    def exp(self, x):
        self.torch._dynamo.graph_break()
        return super().exp(x)
