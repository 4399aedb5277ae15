# aws_sagemaker_training_job and aws_sagemaker_pipeline in Terraform's native syntax, as the provider's docs
# write them (hashicorp/terraform-provider-aws@03454168e7442ba8cb883844612facfa86736063
# website/docs/r/sagemaker_training_job.html.markdown and r/sagemaker_pipeline.html.markdown).
# Twin of terraform-debugger.tf.json: the same configuration in Terraform's JSON syntax (blocks as lists).
# Seeded mistakes: save_interval "0" (SMD132), a 300 ms profiling interval (SMD144), a relative LocalPath
# (SMD153), a rule in a built-in rule image without rule_to_invoke (SMD125), a step range that saves nothing
# (SMD133, in the pipeline written with jsonencode), and a heredoc definition with save_interval "-1" (SMD133).

variable "bucket" {
  type = string
}

resource "aws_sagemaker_training_job" "train" {
  training_job_name = "debugger-train"
  role_arn          = aws_iam_role.sagemaker.arn

  algorithm_specification {
    training_image      = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.0.0-gpu-py310"
    training_input_mode = "File"
  }

  output_data_config {
    s3_output_path = "s3://${var.bucket}/output"
  }

  resource_config {
    instance_type     = "ml.p3.2xlarge"
    instance_count    = 1
    volume_size_in_gb = 30
  }

  stopping_condition {
    max_runtime_in_seconds = 86400
  }

  debug_hook_config {
    s3_output_path = "s3://${var.bucket}/debug"
    local_path     = "opt/ml/output/tensors"
    hook_parameters = {
      save_interval = "0"
    }

    collection_configurations {
      collection_name = "gradients"
      collection_parameters = {
        "save_interval" = "100"
      }
    }
  }

  debug_rule_configurations {
    rule_configuration_name = "VanishingGradient"
    rule_evaluator_image    = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
    instance_type           = "ml.t3.medium"
  }

  profiler_config {
    s3_output_path                     = "s3://${var.bucket}/profiler"
    profiling_interval_in_milliseconds = 300
  }

  tensor_board_output_config {
    s3_output_path = "s3://${var.bucket}/tensorboard"
  }
}

resource "aws_sagemaker_pipeline" "encoded" {
  pipeline_name         = "debugger-pipeline"
  pipeline_display_name = "debugger-pipeline"
  role_arn              = aws_iam_role.sagemaker.arn

  pipeline_definition = jsonencode({
    Version = "2020-12-01"
    Steps = [{
      Name = "Train"
      Type = "Training"
      Arguments = {
        RoleArn = aws_iam_role.sagemaker.arn
        DebugHookConfig = {
          S3OutputPath   = "s3://${var.bucket}/debug"
          HookParameters = { "train.start_step" = "100", "train.end_step" = "10" }
        }
      }
    }]
  })
}

resource "aws_sagemaker_pipeline" "heredoc" {
  pipeline_name         = "debugger-pipeline-heredoc"
  pipeline_display_name = "debugger-pipeline-heredoc"
  role_arn              = aws_iam_role.sagemaker.arn

  pipeline_definition = <<EOF
{"Version": "2020-12-01",
 "Steps": [{"Name": "Train", "Type": "Training", "Arguments": {
   "DebugHookConfig": {"S3OutputPath": "s3://bucket/debug", "HookParameters": {"save_interval": "-1"}}}}]}
EOF
}
