"""Judging: values against the documentation and the float64 reference within error bounds,
gradients, properties, documented differences, the compiled mode against the eager one."""
