#!/bin/sh
# One-shot set-up of MinIO for deploy/compose.yaml (image minio/mc); safe to run again.
# The bucket stays private. The application gets its own access key instead of the MinIO root account;
# `readwrite` covers every bucket, and this MinIO holds only the application's.
set -eu

mc alias set local http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD"
mc mb --ignore-existing "local/$BUCKET"
mc admin user add local "$APP_ACCESS_KEY" "$APP_SECRET_KEY"
# Older mc releases fail when the policy is attached already, so attach only when it is not.
info=$(mc admin user info local "$APP_ACCESS_KEY")
case "$info" in
  *readwrite*) ;;
  *) mc admin policy attach local readwrite --user "$APP_ACCESS_KEY" ;;
esac
echo "bucket $BUCKET ready for $APP_ACCESS_KEY"
