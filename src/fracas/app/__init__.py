"""The application layer every adapter calls: the conflict service over a store, scenario files
and their scripts, export and import."""
