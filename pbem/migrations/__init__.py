"""The database's migrations (alembic): `env.py` and one file per revision in
`versions/`. Run through `pbem.schema`, never by the `alembic` command line."""
