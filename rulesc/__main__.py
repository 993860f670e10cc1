import sys

from rulesc.cli import main

if __name__ == "__main__":  # not when a worker process of `--jobs N` imports it
    sys.exit(main())
