"""The ACPC dealer protocol (ACPC.md): game definitions, MATCHSTATE lines, a client that puts
any of our bots at an ACPC dealer, a dealer that hosts ACPC programs with our engine, its logs,
and external programs as seats of our tournaments."""
