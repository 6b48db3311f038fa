"""Core layer (below the backends): Tensor and Result, autograd nodes, memory-pool strategies and step memory
plans. Imports alpha_py.errors only."""
