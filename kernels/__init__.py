"""CUDA C++ sources of the GPU engine (shipped as package data alpha_py.kernels)."""
