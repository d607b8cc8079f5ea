// Package deploy holds no code: its folder keeps the files that run
// `meshrig batch` elsewhere — Dockerfile (a static binary on a distroless
// base), kubernetes/job.yaml (an Indexed Job over a shared volume) and
// slurm/batch.sbatch (a job array) — and deploy_test.go, which reads the
// Job with the Kubernetes API's own types so that it cannot rot silently.
package deploy
