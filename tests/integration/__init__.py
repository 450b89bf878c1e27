"""Tests against real servers (Postfix, Dovecot, PostgreSQL) started by scripts/test.sh."""
