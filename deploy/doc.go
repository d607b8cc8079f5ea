// Package deploy holds no code: its folder keeps the files that run
// `meshrig batch` elsewhere — Dockerfile (a static binary on a distroless
// base), kubernetes/job.yaml (an Indexed Job over a shared volume) and
// slurm/batch.sbatch (a job array) — and their tests: deploy_test.go reads
// the Job with the Kubernetes API's own types and checks its fields, and
// command_test.go runs the Job's command for every index, and the Slurm
// script for every task, on a small generated library, so neither can rot
// silently.
package deploy
