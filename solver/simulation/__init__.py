"""Running a System: CVODES and IDAS simulation, the Result, fast numeric calls and C code
generation with its cache."""
