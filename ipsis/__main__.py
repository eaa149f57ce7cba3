from ipsis.cli import main

main(prog_name="ipsis")
