"""The IFToMM/Coruña multibody benchmarks and Andrews' squeezing mechanism (issue 29): each
problem built from jourdain's components, its reference, its error in the benchmark's own
measure and CPU time; ``python benchmarks/mbs/run_all.py`` prints the table."""
