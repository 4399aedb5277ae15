"""The language server (``sm-debug-config server``): an editor's documents checked as the command line checks files.

A thin adapter over the commands' own checks, one module per concern: :mod:`.text` (the CLI's places as LSP
positions, in UTF-16 code units), :mod:`.checking` (a document, or a notebook's cells, through ``lint`` or
``validate``'s per-file check, its report as diagnostics), :mod:`.actions` (fixes, ignore comments, fix all),
:mod:`.knowledge` (hover and completion from the rule catalogue and the config format), :mod:`.app` (pygls: the
handlers, debouncing, stale checks dropped) and :mod:`.jupyter` (jupyter-lsp's spec, so JupyterLab and SageMaker
Studio notebooks start it). pygls and lsprotocol come with the ``server`` extra (Python 3.9 or later).
"""
