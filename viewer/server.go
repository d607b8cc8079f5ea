package viewer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// DefaultListen is where the server binds unless Options.Listen says
// otherwise: loopback only, any free port.
const DefaultListen = "127.0.0.1:0"

// Options configures a Server. Rig is required; every other field has a
// working default.
type Options struct {
	// Rig is the rig to show and edit. The server never modifies it: edits
	// make new rigs.
	Rig *rig.Rig
	// Input is the animation the rig came from, or nil. Its vertices are
	// the rig's (same count, same order) and its frames those the rig's
	// clips play, in order; New checks both.
	Input *seq.Sequence
	// Name is what the page shows as the rig's name (a file name).
	Name string
	// Static marks a rig of a single static mesh: re-solving solves its
	// skin weights again rather than refitting an animation.
	Static bool
	// Inputs lists every file read to build the rig and the input; Save
	// never writes over one of them.
	Inputs []string
	// SaveDir is the folder Save may write in (and below); default the
	// current folder.
	SaveDir string
	// Listen is the address to bind, host:port; default DefaultListen.
	// Port 0 picks a free port.
	Listen string
	// Web holds the page: index.html at its top, and the files it loads
	// (app.js, app.css). Nil serves no page, only the API.
	Web fs.FS
	// Edit applies one skeleton edit; default ApplyEdit (package rig/edit).
	Edit Editor
	// Solve re-solves a rig with its skeleton fixed; default
	// Refit("", refit.Options{}).
	Solve Solver
	// Logf receives the server's remarks: first requests, the page's
	// timings (POST /api/log), solves finished or failed. Nil drops them.
	Logf func(format string, a ...any)
	// Start is when the command started, for the timings Logf reports;
	// default when New was called.
	Start time.Time
}

// Server holds the rig being viewed, its history and the listener.
type Server struct {
	opt     Options
	token   string
	hosts   map[string]bool
	ln      net.Listener
	saveDir string
	mux     *http.ServeMux

	mu    sync.Mutex
	hist  history
	solve solveState

	glb      glbCache
	firstGLB sync.Once
	ctx      context.Context // ends when Serve returns; solves run under it
	cancel   context.CancelFunc
	wg       sync.WaitGroup // running solves
}

// New checks the rig and the input against each other, measures the rig,
// binds the listen address and draws the token. The server answers
// requests once Serve runs (or through Handler).
func New(opt Options) (*Server, error) {
	if opt.Rig == nil {
		return nil, errors.New("viewer: no rig to show")
	}
	if err := opt.Rig.Validate(); err != nil {
		return nil, fmt.Errorf("viewer: invalid rig: %w", err)
	}
	if opt.Start.IsZero() {
		opt.Start = time.Now()
	}
	if opt.Edit == nil {
		opt.Edit = ApplyEdit
	}
	if opt.Solve == nil {
		opt.Solve = Refit("", refit.Options{})
	}
	if opt.Listen == "" {
		opt.Listen = DefaultListen
	}
	s := &Server{opt: opt}
	if err := s.checkInput(opt.Rig); err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	first, err := s.measure(opt.Rig)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	s.hist = newHistory(first)
	dir := opt.SaveDir
	if dir == "" {
		dir = "."
	}
	if s.saveDir, err = realDir(dir); err != nil {
		return nil, fmt.Errorf("viewer: save folder: %w", err)
	}
	if s.token, err = newToken(); err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(opt.Listen)
	if err != nil {
		return nil, fmt.Errorf("viewer: listen address %q: %w", opt.Listen, err)
	}
	if s.ln, err = net.Listen("tcp", opt.Listen); err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	s.hosts = allowedHosts(host, s.ln.Addr().(*net.TCPAddr).Port)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	return s, nil
}

// realDir returns dir absolute with its links resolved, checking it is a
// folder.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return real, nil
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.static("index.html"))
	m.HandleFunc("GET /{file}", s.staticFile)
	// Browsers ask for an icon on their own; none is no error.
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	m.HandleFunc("GET /api/state", s.getState)
	m.HandleFunc("GET /api/rig.glb", s.getGLB)
	m.HandleFunc("GET /api/error", s.getError)
	m.HandleFunc("GET /api/input", s.getInput)
	m.HandleFunc("POST /api/edit", s.postEdit)
	m.HandleFunc("POST /api/undo", s.postUndo)
	m.HandleFunc("POST /api/redo", s.postRedo)
	m.HandleFunc("POST /api/solve", s.postSolve)
	m.HandleFunc("GET /api/solve", s.getSolve)
	m.HandleFunc("DELETE /api/solve", s.deleteSolve)
	m.HandleFunc("POST /api/save", s.postSave)
	m.HandleFunc("POST /api/log", s.postLog)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no endpoint %s %s", r.Method, r.URL.Path)
	})
	s.mux = m
}

// Handler returns the server's routes behind its security checks, for
// tests and for embedding in another http.Server.
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

// Addr returns the bound address, host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Token returns the per-run token /api/ calls must carry.
func (s *Server) Token() string { return s.token }

// URL returns the page's address with the token, to print or open.
func (s *Server) URL() string {
	a := s.ln.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port)) + "/?token=" + s.token
}

// Serve answers requests until ctx is done, then stops the running solve,
// lets requests in flight finish (up to 5 seconds) and returns nil; it
// returns an error only when serving fails.
func (s *Server) Serve(ctx context.Context) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// The largest answer, a rig's GLB, takes well under a minute even
		// on a slow link; a solve runs in the background, not in a request.
		WriteTimeout:   2 * time.Minute,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(s.ln) }()
	select {
	case err := <-errc:
		s.stop()
		return err
	case <-ctx.Done():
	}
	s.stop()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close stops a running solve and releases the listener when Serve was
// never called.
func (s *Server) Close() error {
	s.stop()
	return s.ln.Close()
}

// stop cancels a running solve and waits for it.
func (s *Server) stop() {
	s.cancel()
	s.wg.Wait()
}

// Unsaved returns how many steps (edits and solves, or undos back past
// the save) the current rig is away from the one last saved or loaded; 0
// when it is that rig.
func (s *Server) Unsaved() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hist.unsaved()
}

// logf passes a remark on to Options.Logf.
func (s *Server) logf(format string, a ...any) {
	if s.opt.Logf != nil {
		s.opt.Logf(format, a...)
	}
}

// since is the time from Options.Start, in milliseconds.
func (s *Server) since() int64 { return time.Since(s.opt.Start).Milliseconds() }
