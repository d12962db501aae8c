"""Tests of the server as a cluster: several instances on one PostgreSQL behind HAProxy."""
