"""The referee: programs under test run in child processes and speak JSON
lines with pyab, which answers their questions from the tree and alone
decides the verdict."""
