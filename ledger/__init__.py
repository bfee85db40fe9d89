"""The write side: events, the Match aggregate, the recorder, persistence."""
