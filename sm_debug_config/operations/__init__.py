"""After submission: rule job status and rule events."""
