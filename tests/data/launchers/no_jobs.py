"""A launcher that starts no training job (it only reads from S3)."""

import boto3

print(boto3.client("s3").list_buckets()["Buckets"])
