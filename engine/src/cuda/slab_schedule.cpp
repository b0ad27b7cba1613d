#include "cuda/slab_schedule.hpp"

#include "cuda/cuda_check.hpp"
#include "slab_copies.hpp"

namespace fft3d {
namespace {

// Events of one run, destroyed with it.
class EventPool {
 public:
  ~EventPool() {
    for (const auto& [device, event] : events_) {
      cudaSetDevice(device);
      cudaEventDestroy(event);
    }
  }
  // An event recorded now on `stream` of `device` (the current device).
  cudaEvent_t record(int device, cudaStream_t stream) {
    cudaEvent_t event = nullptr;
    cuda::check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    events_.push_back({device, event});
    cuda::check(cudaEventRecord(event, stream), "cudaEventRecord");
    return event;
  }

 private:
  std::vector<std::pair<int, cudaEvent_t>> events_;
};

using Events = std::vector<cudaEvent_t>;

void wait_all(cudaStream_t stream, const Events& events) {
  for (cudaEvent_t event : events) cuda::check(cudaStreamWaitEvent(stream, event, 0), "cudaStreamWaitEvent");
}

class Schedule {
 public:
  Schedule(const SlabDecomposition& d, std::int64_t chunk_planes, const std::vector<SlabSide>& sides,
           const TransformOptions& options, const WaitForEvents& wait_for, std::int64_t real_plane_units = 0,
           std::int64_t row_chunks = 1)
      : d_(d), chunk_(chunk_planes), sides_(sides), options_(options), wait_for_(wait_for),
        real_plane_units_(real_plane_units), row_chunks_(row_chunks) {}

  int gpus() const { return d_.gpus; }
  std::int64_t row_chunks() const { return row_chunks_; }
  std::int64_t chunks() const { return d_.z_slab().nz / chunk_; }
  std::int64_t chunk_elements() const { return d_.size.nx * d_.size.ny * chunk_; }
  // Units of one chunk on the slab plan's real side: a real transform's rows of reals, else the spectrum's.
  std::int64_t real_chunk_units() const {
    return real_plane_units_ > 0 ? real_plane_units_ * chunk_ : chunk_elements();
  }

  // Marks "now" on every compute stream.
  Events mark_all() {
    Events marks;
    for (const SlabSide& side : sides_) {
      set(side);
      marks.push_back(pool_.record(side.device, side.compute));
    }
    return marks;
  }

  // The slab plan on chunk k of GPU g, from `in` to `out` (z slabs), after `after` on its compute stream.
  // A real transform's forward reads its real side and writes the spectrum; its inverse (the C2R plan) the mirror.
  cudaEvent_t slab_chunk(int g, std::int64_t k, const ExchangeUnit* in, ExchangeUnit* out, const Events& after) {
    const SlabSide& side = sides_[g];
    set(side);
    wait_all(side.compute, after);
    const bool forward = options_.direction == Direction::forward;
    const std::int64_t in_offset = k * (forward ? real_chunk_units() : chunk_elements());
    const std::int64_t out_offset = k * (forward ? chunk_elements() : real_chunk_units());
    execute_local_plan(!forward && side.slab_c2r ? *side.slab_c2r : *side.slab, in + in_offset, out + out_offset,
                       options_, side.compute);
    return pool_.record(side.device, side.compute);
  }

  bool runs_last_kernel_apart() const { return sides_.front().slab_y_part != nullptr; }

  // The slab plan on chunk k of GPU g with its last kernel apart (SlabSide::slab_y_part), after `after`: the plan
  // without it from `in` into the z slab `slabbed`, the last kernel on every peer's rows in place there, then on this
  // GPU's own rows straight into its y slab `y_slab` (chunk-major in the schedule's row chunks). Returns when the
  // peers' rows are ready to send; the own rows are done in stream order, before anything the compute stream runs
  // next.
  cudaEvent_t slab_chunk_apart(int g, std::int64_t k, const ExchangeUnit* in, ExchangeUnit* slabbed,
                               ExchangeUnit* y_slab, const Events& after) {
    const SlabSide& side = sides_[g];
    set(side);
    wait_all(side.compute, after);
    ExchangeUnit* chunk = slabbed + k * chunk_elements();
    execute_local_plan(*side.slab_y_part, in + k * chunk_elements(), chunk, options_, side.compute);
    x_on_peer_rows(g, chunk);
    const cudaEvent_t peers_ready = pool_.record(side.device, side.compute);
    for (std::int64_t c = 0; c < row_chunks_; ++c)
      execute_local_plan(*side.slab_x_own_forward, chunk + own_rows_offset(g, c), y_slab + y_slab_offset(g, k, c),
                         options_, side.compute);
    return peers_ready;
  }

  // The inverse's mirror on chunk k of GPU g, in place on the z slab `z_slab`: this GPU's own rows from its y slab
  // `y_slab` into `z_slab` first (after its Z work, in stream order), then, once `copies_in` have brought the
  // peers' rows, the last kernel on those in place and the plan without it.
  cudaEvent_t slab_chunk_apart_inverse(int g, std::int64_t k, const ExchangeUnit* y_slab, ExchangeUnit* z_slab,
                                       const Events& copies_in) {
    const SlabSide& side = sides_[g];
    set(side);
    ExchangeUnit* chunk = z_slab + k * chunk_elements();
    for (std::int64_t c = 0; c < row_chunks_; ++c)
      execute_local_plan(*side.slab_x_own_inverse, y_slab + y_slab_offset(g, k, c), chunk + own_rows_offset(g, c),
                         options_, side.compute);
    wait_all(side.compute, copies_in);
    x_on_peer_rows(g, chunk);
    execute_local_plan(*side.slab_y_part, chunk, chunk, options_, side.compute);
    return pool_.record(side.device, side.compute);
  }

  // The column plan on GPU g, after `after`.
  cudaEvent_t column(int g, const ExchangeUnit* in, ExchangeUnit* out, const Events& after) {
    const SlabSide& side = sides_[g];
    set(side);
    wait_all(side.compute, after);
    execute_local_plan(*side.column, in, out, options_, side.compute);
    return pool_.record(side.device, side.compute);
  }

  // Row chunk c of the chunk-major y slab `y_slab` of GPU g (in_row_chunks), the column plan in place on it, after
  // `after`.
  cudaEvent_t column_chunk(int g, std::int64_t c, ExchangeUnit* y_slab, const Events& after) {
    const SlabSide& side = sides_[g];
    set(side);
    wait_all(side.compute, after);
    ExchangeUnit* chunk = y_slab + c * (d_.local_elements() / row_chunks_);
    execute_local_plan(*side.column_chunk, chunk, chunk, options_, side.compute);
    return pool_.record(side.device, side.compute);
  }

  // The copies, each on its sender's copy stream to that destination after `after[from]` and `after[to]` (with
  // an SM kernel: a sender's copies in one launch on its own copy stream, after all of theirs); returns the
  // completions.
  Events copy(const std::vector<PlaneCopy>& copies, const std::vector<const ExchangeUnit*>& sources,
              const std::vector<ExchangeUnit*>& destinations, const Events& after_sender,
              const Events& after_receiver) {
    Events done;
    for (int from = 0; from < gpus(); ++from) {
      std::vector<PlaneCopy> sent;
      for (const PlaneCopy& c : copies)
        if (c.from == from) sent.push_back(c);
      if (sent.empty()) continue;
      const SlabSide& side = sides_[from];
      set(side);
      if (side.peer_copies) {
        cudaStream_t stream = side.copies[from];
        wait_all(stream, {after_sender[from]});
        for (const PlaneCopy& c : sent) wait_all(stream, {after_receiver[c.to]});
        side.peer_copies->launch(sent, sources, destinations, side.peer_copy_blocks, stream);
        done.push_back(pool_.record(side.device, stream));
        continue;
      }
      // One wait and one completion a destination's stream, whatever the number of copies on it: each costs the
      // host microseconds, which add up over the pieces of row chunks.
      std::vector<bool> used(static_cast<std::size_t>(gpus()), false);
      for (const PlaneCopy& c : sent) {
        cudaStream_t stream = side.copies[c.to];
        if (!used[c.to]) wait_all(stream, {after_sender[c.from], after_receiver[c.to]});
        used[c.to] = true;
        cuda::check(cudaMemcpy2DAsync(destinations[c.to] + c.dst_offset, c.dst_pitch * exchange_unit_bytes,
                                      sources[c.from] + c.src_offset, c.src_pitch * exchange_unit_bytes,
                                      c.width * exchange_unit_bytes, c.height, cudaMemcpyDefault, stream),
                    "cudaMemcpy2DAsync (slab exchange)");
      }
      for (int to = 0; to < gpus(); ++to)
        if (used[to]) done.push_back(pool_.record(side.device, side.copies[to]));
    }
    return done;
  }

  // Every compute stream past `after`, then the caller's wait for all of them.
  void finish(const Events& after) {
    Events last;
    for (const SlabSide& side : sides_) {
      set(side);
      wait_all(side.compute, after);
      last.push_back(pool_.record(side.device, side.compute));
    }
    wait_for_(last);
  }

 private:
  static void set(const SlabSide& side) { cuda::check(cudaSetDevice(side.device), "cudaSetDevice"); }

  // Units of one GPU's rows of a plane (the y slab's plane), and of one row chunk's share of them.
  std::int64_t slab_rows() const { return d_.size.nx * (d_.size.ny / gpus()); }
  std::int64_t chunk_rows() const { return slab_rows() / row_chunks_; }
  // Where row chunk c of GPU g's own rows starts in a slab chunk's first plane.
  std::int64_t own_rows_offset(int g, std::int64_t c) const { return g * slab_rows() + c * chunk_rows(); }
  // Where slab chunk k's first plane of row chunk c lies in GPU g's chunk-major y slab (in_row_chunks).
  std::int64_t y_slab_offset(int g, std::int64_t k, std::int64_t c) const {
    const std::int64_t plane = g * d_.z_slab().nz + k * chunk_;
    return c * chunk_rows() * d_.size.nz + plane * chunk_rows();
  }
  // The slab plan's last kernel on every peer's rows of the slab chunk at `chunk`, in place, on GPU g's stream.
  void x_on_peer_rows(int g, ExchangeUnit* chunk) {
    const SlabSide& side = sides_[g];
    for (int h = 0; h < gpus(); ++h)
      if (h != g)
        execute_local_plan(*side.slab_x_peers, chunk + h * slab_rows(), chunk + h * slab_rows(), options_,
                           side.compute);
  }

  const SlabDecomposition& d_;
  std::int64_t chunk_;
  const std::vector<SlabSide>& sides_;
  TransformOptions options_;  // of both local plans: each scales by its own transformed lengths, together 1/N
  const WaitForEvents& wait_for_;
  std::int64_t real_plane_units_;
  std::int64_t row_chunks_;
  EventPool pool_;
};

std::vector<const ExchangeUnit*> as_sources(const std::vector<ExchangeUnit*>& buffers) {
  return {buffers.begin(), buffers.end()};
}

Events concat(Events a, const Events& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Every GPU's copies of planes [z0, z1) of the z slabs, to y slabs or back: one call of Schedule::copy, so that
// an SM kernel sends each GPU's share to all its peers at once.
std::vector<PlaneCopy> every_copy(const SlabDecomposition& d, bool to_y_slabs, std::int64_t z0, std::int64_t z1) {
  std::vector<PlaneCopy> copies;
  for (int g = 0; g < d.gpus; ++g)
    for (const PlaneCopy& c : to_y_slabs ? to_y_slab_copies(d, g, z0, z1) : to_z_slab_copies(d, g, z0, z1))
      copies.push_back(c);
  return copies;
}

// every_copy, less each GPU's copy to itself where the slab plan's last kernel runs apart (`apart`): it stores its own
// rows into the y slab (forward) or loads them from there (inverse).
std::vector<PlaneCopy> exchanged(const SlabDecomposition& d, bool to_y_slabs, std::int64_t z0, std::int64_t z1,
                                 bool apart) {
  std::vector<PlaneCopy> copies = every_copy(d, to_y_slabs, z0, z1);
  if (apart) std::erase_if(copies, [](const PlaneCopy& c) { return c.from == c.to; });
  return copies;
}

// every_copy of every Z plane with its y-slab side in the schedule's row chunks: chunk `only` alone, or all of them.
std::vector<PlaneCopy> every_copy_in_row_chunks(const Schedule& s, const SlabDecomposition& d, bool to_y_slabs,
                                                std::int64_t only = -1) {
  return in_row_chunks(d, every_copy(d, to_y_slabs, 0, d.z_slab().nz), s.row_chunks(), to_y_slabs, only);
}

// The buffers of one run: I (ins), O (outs) and B (the exchange buffers); I == O in place. A real inverse out of
// place may write I (in_scratch).
struct Buffers {
  std::vector<const ExchangeUnit*> in;
  std::vector<ExchangeUnit*> out;
  std::vector<ExchangeUnit*> buffer;
  std::vector<ExchangeUnit*> in_scratch;
  bool in_place = false;
  bool real = false;
};

// Natural order with the y slabs in row chunks: slab chunks from I into O; each chunk's copies to the chunk-major
// y slabs in B; once every copy is done, the column plan a row chunk at a time in place on B, and each row chunk's
// copies back to O as soon as its Z work is done on the sender (each column chunk comes after every copy to y slabs,
// so no copy back lands on O while a copy still reads it).
void forward_in_row_chunks(Schedule& s, const SlabDecomposition& d, const Buffers& b) {
  const int gpus = s.gpus();
  const Events start = s.mark_all();
  const std::int64_t planes = d.z_slab().nz / s.chunks();
  const bool apart = s.runs_last_kernel_apart();
  Events copied;
  for (std::int64_t k = 0; k < s.chunks(); ++k) {
    Events chunk_done(gpus);
    for (int g = 0; g < gpus; ++g)
      chunk_done[g] = apart ? s.slab_chunk_apart(g, k, b.in[g], b.out[g], b.buffer[g], {start[g]})
                            : s.slab_chunk(g, k, b.in[g], b.out[g], {start[g]});
    const std::vector<PlaneCopy> copies =
        in_row_chunks(d, exchanged(d, true, k * planes, (k + 1) * planes, apart), s.row_chunks(), true);
    copied = concat(copied, s.copy(copies, as_sources(b.out), b.buffer, chunk_done, start));
  }
  Events copied_back;
  for (std::int64_t c = 0; c < s.row_chunks(); ++c) {
    Events column_done(gpus);
    for (int g = 0; g < gpus; ++g) column_done[g] = s.column_chunk(g, c, b.buffer[g], c == 0 ? copied : Events{});
    copied_back = concat(copied_back, s.copy(every_copy_in_row_chunks(s, d, false, c), as_sources(b.buffer), b.out,
                                             column_done, column_done));
  }
  s.finish(copied_back);
}

// Forward. Slab chunks from I into S (I in place, else B); each chunk's copies to y slabs Y (B in place, else O) as
// soon as both ends allow (with the slab plan's last kernel apart, each GPU's own rows go straight into its Y and
// only the peers' rows are copied); the column plan once every copy is done (in place, its output may be a copy's
// source): into O for the y-slab layout, into B for natural order, whose copies back to z slabs then fill O (natural
// order in row chunks: forward_in_row_chunks).
void forward(Schedule& s, const SlabDecomposition& d, const Buffers& b, SlabLayout layout) {
  if (layout == SlabLayout::natural && s.row_chunks() > 1) return forward_in_row_chunks(s, d, b);
  const int gpus = s.gpus();
  const std::vector<ExchangeUnit*>& slabbed = b.in_place ? b.out : b.buffer;
  const std::vector<ExchangeUnit*>& y_slabs = b.in_place ? b.buffer : b.out;
  const Events start = s.mark_all();
  const std::int64_t planes = d.z_slab().nz / s.chunks();
  const bool apart = s.runs_last_kernel_apart();
  Events copied;
  for (std::int64_t k = 0; k < s.chunks(); ++k) {
    Events chunk_done(gpus);
    for (int g = 0; g < gpus; ++g)
      chunk_done[g] = apart ? s.slab_chunk_apart(g, k, b.in[g], slabbed[g], y_slabs[g], {start[g]})
                            : s.slab_chunk(g, k, b.in[g], slabbed[g], {start[g]});
    copied = concat(copied, s.copy(exchanged(d, true, k * planes, (k + 1) * planes, apart), as_sources(slabbed),
                                   y_slabs, chunk_done, start));
  }
  const std::vector<ExchangeUnit*>& columned = layout == SlabLayout::y_slabs ? b.out : b.buffer;
  Events column_done(gpus);
  for (int g = 0; g < gpus; ++g) column_done[g] = s.column(g, y_slabs[g], columned[g], copied);
  if (layout == SlabLayout::y_slabs) return s.finish({});
  s.finish(s.copy(every_copy(d, false, 0, d.z_slab().nz), as_sources(b.buffer), b.out, column_done, column_done));
}

// Inverse, the mirror. Natural order: I to y slabs in B, the column plan in place on B (in row chunks: each chunk's
// Z work as soon as its copies are in, overlapping the next chunk's copies); y-slab layout: the column plan from I
// into B. Then chunks of the copies back to z slabs in O, each after the column plan on both ends (in place, it
// reads O), and each chunk's slab plan in place on O as soon as its copies are in: B, their source, is never written
// again, so no chunk waits for the others' copies. A real inverse out of place lands the copies back to z slabs in I
// instead (its scratch: O's real rows have no room for the half spectrum), each chunk's C2R from there into O
// (packed rows out of place, padded rows in place). With the slab plan's last kernel apart, each GPU's own rows go
// from B into O by that kernel as soon as its Z work is done, and only the peers' rows are copied.
void inverse(Schedule& s, const SlabDecomposition& d, const Buffers& b, SlabLayout layout) {
  const int gpus = s.gpus();
  const Events start = s.mark_all();
  Events column_done(gpus);
  const bool row_chunked = layout == SlabLayout::natural && s.row_chunks() > 1;
  if (row_chunked) {  // each row chunk's Z work as soon as its copies are in
    std::vector<Events> chunk_copies;
    for (std::int64_t c = 0; c < s.row_chunks(); ++c)
      chunk_copies.push_back(s.copy(every_copy_in_row_chunks(s, d, true, c), b.in, b.buffer, start, start));
    for (std::int64_t c = 0; c < s.row_chunks(); ++c)
      for (int g = 0; g < gpus; ++g) column_done[g] = s.column_chunk(g, c, b.buffer[g], chunk_copies[c]);
  } else if (layout == SlabLayout::natural) {
    const Events copied = s.copy(every_copy(d, true, 0, d.z_slab().nz), b.in, b.buffer, start, start);
    for (int g = 0; g < gpus; ++g) column_done[g] = s.column(g, b.buffer[g], b.buffer[g], copied);
  } else {
    for (int g = 0; g < gpus; ++g) column_done[g] = s.column(g, b.in[g], b.buffer[g], {start[g]});
  }
  const std::vector<ExchangeUnit*>& z_slabs = b.real && !b.in_place ? b.in_scratch : b.out;
  const std::int64_t planes = d.z_slab().nz / s.chunks();
  const bool apart = s.runs_last_kernel_apart();
  std::vector<Events> chunk_copies;
  for (std::int64_t k = 0; k < s.chunks(); ++k) {
    std::vector<PlaneCopy> copies = exchanged(d, false, k * planes, (k + 1) * planes, apart);
    if (row_chunked) copies = in_row_chunks(d, copies, s.row_chunks(), false);
    chunk_copies.push_back(s.copy(copies, as_sources(b.buffer), z_slabs, column_done, column_done));
  }
  Events slabs_done;
  for (std::int64_t k = 0; k < s.chunks(); ++k)
    for (int g = 0; g < gpus; ++g)
      slabs_done.push_back(apart ? s.slab_chunk_apart_inverse(g, k, b.buffer[g], b.out[g], chunk_copies[k])
                                 : s.slab_chunk(g, k, z_slabs[g], b.out[g], chunk_copies[k]));
  s.finish(slabs_done);
}

// The plan's run on data of type Real (its reals) and Complex (its complex values), by the plan's kind.
template <class Real, class Complex>
void execute_as(GpuTransform& plan, const ExchangeUnit* in, ExchangeUnit* out, const TransformOptions& options,
                cudaStream_t stream) {
  switch (kind_of(plan.plan())) {
    case TransformKind::r2c:
      return plan.execute(reinterpret_cast<const Real*>(in), reinterpret_cast<Complex*>(out), options, stream);
    case TransformKind::c2r:
      return plan.execute(reinterpret_cast<const Complex*>(in), reinterpret_cast<Real*>(out), options, stream);
    case TransformKind::c2c:
      break;
  }
  plan.execute(reinterpret_cast<const Complex*>(in), reinterpret_cast<Complex*>(out), options, stream);
}

}  // namespace

void execute_local_plan(GpuTransform& plan, const ExchangeUnit* in, ExchangeUnit* out, const TransformOptions& options,
                        cudaStream_t stream) {
  if (plan.plan().precision == Precision::fp64)
    return execute_as<double, DeviceComplex64>(plan, in, out, options, stream);
  execute_as<float, DeviceComplex32>(plan, in, out, options, stream);
}

void run_slab_schedule(const SlabDecomposition& d, std::int64_t chunk_planes, std::int64_t row_chunks,
                       const std::vector<SlabSide>& sides, const SlabRun& run, SlabLayout layout,
                       const TransformOptions& options, const WaitForEvents& wait_for) {
  Schedule schedule(d, chunk_planes, sides, options, wait_for, run.real_plane_units, row_chunks);
  Buffers buffers{run.in, run.out, {}, run.in_scratch, run.in[0] == run.out[0], run.real_plane_units > 0};
  for (const SlabSide& side : sides) buffers.buffer.push_back(side.buffer);
  if (options.direction == Direction::forward)
    forward(schedule, d, buffers, layout);
  else
    inverse(schedule, d, buffers, layout);
}

void run_slab_exchange(const SlabDecomposition& d, const std::vector<SlabSide>& sides,
                       const std::vector<const ExchangeUnit*>& z_slabs,
                       const std::vector<ExchangeUnit*>& y_slabs, const WaitForEvents& wait_for) {
  Schedule schedule(d, d.z_slab().nz, sides, {}, wait_for);
  const Events start = schedule.mark_all();
  schedule.finish(schedule.copy(every_copy(d, true, 0, d.z_slab().nz), z_slabs, y_slabs, start, start));
}

}  // namespace fft3d
