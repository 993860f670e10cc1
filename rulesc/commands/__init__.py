"""The commands of `rulesc`, one module each.

Each module says in its docstring why the command exists, and has `EXAMPLE` (the example its
help ends with), `add_parser(sub)` (adds its subparser to argparse's subparsers `sub`, with the
function that runs it as the `func` default) and that function (`run(args)`; `debug`'s
`run_codegen`), which returns the exit code. `shared` holds what they share: common options,
loading a file, the checks before any work, error reporting. A command imports what it needs
when it runs, so that `rulesc check --static` starts without the interpreter. rulesc/cli.py puts
the table of commands together; nothing here imports it.
"""
