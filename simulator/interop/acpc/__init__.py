"""The ACPC dealer protocol (version 2.0.0): game definitions, MATCHSTATE lines, a client that puts
any of our bots at an ACPC dealer, a dealer that hosts ACPC programs with our engine, its logs,
and external programs as seats of our tournaments."""
