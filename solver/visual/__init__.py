"""Visualization wing (rank 3): the shapes of a System and their poses, 3-D animation in the
browser (three.js from MeshCat's bundle), video and 2-D projections (matplotlib), plots with
units, the component graph, and HTML summaries for notebooks. It needs no Result class, only
arrays and compiled functions, so Result, Solution and System delegate to it."""
