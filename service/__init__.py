"""The use cases: what the REST API (api/) and the command line (cli/) both do.

Service functions take plain values (ids, strings, domain objects, a connection or
pool, a recorder, the settings) and return plain values or domain objects; the
faces parse requests and print or serialise answers.
"""
