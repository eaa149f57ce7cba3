from ipsis.cli import main

main()
