package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/meshrig/meshrig/internal/safefile"
)

// ReportDir is the output folder's subfolder of item reports, one
// ID.json per item, written by whichever shard did the item.
const ReportDir = "reports"

// Status values of a Report.
const (
	StatusDone   = "done"
	StatusFailed = "failed"
)

// Report is one item's record: what was read, with which options, by
// which meshrig, and how well and how fast it went. An item is up to date
// when its report says done, its Digest, Options and Output match the
// item's inputs' contents and its options now, and its output exists.
type Report struct {
	ID     string   `json:"id"`
	Status string   `json:"status"`
	Error  string   `json:"error,omitempty"`
	Inputs []string `json:"inputs"`
	// Digest is the inputs' content digest (see Digest).
	Digest  string     `json:"digest,omitempty"`
	Options RigOptions `json:"options"`
	// Output is the rig, relative to the output folder.
	Output  string `json:"output"`
	Version string `json:"meshrig_version"`
	Shard   string `json:"shard"`

	Vertices    int     `json:"vertices"`
	Frames      int     `json:"frames"`
	Bones       int     `json:"bones"`
	Joints      int     `json:"joints"`
	RMSEPercent float64 `json:"rmse_percent"`
	MaxPercent  float64 `json:"max_percent"`
	// Seconds is the item's wall time; CPUSeconds its user + system time.
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// PeakMB is the item's peak resident memory, EstimateMB what the
	// memory model predicted before it started (MiB).
	PeakMB     float64   `json:"peak_mb"`
	EstimateMB float64   `json:"estimate_mb"`
	Finished   time.Time `json:"finished"`
}

// ReportPath is where item id's report lives under outDir.
func ReportPath(outDir, id string) string {
	return filepath.Join(outDir, ReportDir, id+".json")
}

// upToDate tells whether an earlier report r lets item it be skipped.
func upToDate(r *Report, it Item, digest, outDir string) bool {
	// The inputs' paths are not compared: the digest of their contents
	// decides, so a library moved or mounted elsewhere is not redone.
	if r == nil || r.Status != StatusDone || r.Digest != digest || r.Options != it.Rig || r.Output != it.Output {
		return false
	}
	st, err := os.Stat(filepath.Join(outDir, it.Output))
	return err == nil && st.Mode().IsRegular() && st.Size() > 0
}

// readReport reads one report; a missing one is nil without error.
func readReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// writeReport writes r to its place atomically (temporary file and
// rename), never over one of inputs.
func writeReport(outDir string, r Report, inputs []string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	path := ReportPath(outDir, r.ID)
	var p safefile.Plan
	defer p.Abort()
	p.Read(inputs...)
	if err := p.Output("report", path); err != nil {
		return err
	}
	if err := p.Stage(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	return p.Commit(context.Background())
}

// ReadReports reads every item report under outDir, sorted by id. A
// report that is not valid JSON is an error naming its file.
func ReadReports(outDir string) ([]Report, error) {
	dir := filepath.Join(outDir, ReportDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("batch report: %w", err)
	}
	var out []Report
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		r, err := readReport(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if r.ID+".json" != name {
			return nil, fmt.Errorf("%s: holds the report of %q", filepath.Join(dir, name), r.ID)
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out, nil
}

// Summary is the merged view of a batch's reports.
type Summary struct {
	Items  int `json:"items"`
	Done   int `json:"done"`
	Failed int `json:"failed"`
	// Vertices and Frames are summed over finished items; VertexFrames
	// is Σ vertices × frames.
	Frames       int     `json:"frames"`
	VertexFrames int64   `json:"vertex_frames"`
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds"`
	// PeakMB is the largest item's peak.
	PeakMB float64 `json:"peak_mb"`
	// MeanRMSEPercent is over finished items.
	MeanRMSEPercent float64 `json:"mean_rmse_percent"`
	// Worst lists up to five finished items by RMSE%, worst first;
	// Failures every failed item.
	Worst    []Report `json:"worst"`
	Failures []Report `json:"failures"`
	// Shards lists the shards that wrote the reports.
	Shards []string `json:"shards"`
}

// Summarize totals reports (see Summary).
func Summarize(reports []Report) Summary {
	s := Summary{Items: len(reports), Worst: []Report{}, Failures: []Report{}, Shards: []string{}}
	shards := map[string]bool{}
	var done []Report
	for _, r := range reports {
		if r.Shard != "" && !shards[r.Shard] {
			shards[r.Shard] = true
			s.Shards = append(s.Shards, r.Shard)
		}
		if r.Status != StatusDone {
			s.Failed++
			s.Failures = append(s.Failures, r)
			continue
		}
		s.Done++
		done = append(done, r)
		s.Frames += r.Frames
		s.VertexFrames += int64(r.Vertices) * int64(r.Frames)
		s.Seconds += r.Seconds
		s.CPUSeconds += r.CPUSeconds
		s.PeakMB = max(s.PeakMB, r.PeakMB)
		s.MeanRMSEPercent += r.RMSEPercent
	}
	sort.Strings(s.Shards)
	if s.Done > 0 {
		s.MeanRMSEPercent /= float64(s.Done)
	}
	sort.SliceStable(done, func(a, b int) bool { return done[a].RMSEPercent > done[b].RMSEPercent })
	s.Worst = append(s.Worst, done[:min(5, len(done))]...)
	return s
}
