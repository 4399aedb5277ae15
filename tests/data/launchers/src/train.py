"""The entry point the launchers name (plan uploads it to the local S3; it never runs)."""
print("training")
