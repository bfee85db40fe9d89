"""The read side: time travel, views, transcripts, audit, export/import, the HTTP service."""
