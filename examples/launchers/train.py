# The training script the launchers name (SageMaker runs it in the job's container; plan never runs it).
print("training")
