"""The pbem shell: mail in and out, storage, deadlines and the command line."""
