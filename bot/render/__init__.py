"""Rendering: engine views to text and images."""
