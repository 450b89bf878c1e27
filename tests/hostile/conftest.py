"""The real-server fixtures of tests/integration, for the hostile tests here."""

from integration.conftest import database_url, mailstack  # noqa: F401
from integration.test_moderator_mail import post  # noqa: F401
