#!/usr/bin/env ruby
# Print lkp-tests' own ncompare output for result roots given as directories: lkp's
# Compare engine (lib/compare.rb, lib/stats.rb) unmodified; only the DataStore lookup
# of sbin/ncompare (/lkp/data paths) is replaced by "this directory is the commit's
# result root" (its matrix.json, and the axes of its first N/job.yaml).
#
# With --root DIR, the result roots are instead the commit directories under DIR whose
# axes match ncompare's -s/-o queries, matched as lkp's DataStore index does (grep -F of
# "k=v/" in the sorted "k=v/…/" axes string; a commit value may be a prefix, which lkp
# expands with git), each query's matches in path order; -c and the grouping are lkp's.
#
# usage: LKP_SRC=… compare_dirs.rb [-a] [-m] [-k] [-p VALUE] BASE_DIR HEAD_DIR [HEAD_DIR…]
#        LKP_SRC=… compare_dirs.rb [-a|-m|-k|-p V] [-c KEYS] --root DIR -s AXES [-s|-o AXES…]
#        LKP_SRC=… compare_dirs.rb --many < pairs   (one "[-a|-m] BASE HEAD" per line;
#                                                   "#### N" printed before block N)
LKP_SRC = ENV['LKP_SRC'] || abort('set LKP_SRC to an lkp-tests checkout')
require "#{LKP_SRC}/lib/compare"
require "#{LKP_SRC}/lib/job"

# NMResultRoot with the same matrix semantics, found by path.
class DirResultRoot
  include CMResultRoot
  attr_reader :axes, :path

  def initialize(dir)
    @path = File.realpath(dir)
    job = Dir["#{@path}/[0-9]*/job.yaml"].min
    axes = job ? Job.open(job).axes : {}
    axes['commit'] ||= File.basename(@path)
    # the DataStore index keeps axes as a sorted "k=v/k=v" string
    @axes = axes.sort.to_h
  end

  def mresult_root_path
    @path
  end

  def matrix
    matrix_fill_missing_zeros(try_load_json("#{@path}/matrix.json") || {})
  end

  def glob(pattern)
    Dir[File.join(@path, pattern)]
  end

  def to_data
    axes
  end
end

def index_match?(rt, cond)
  line = "#{DataStore::Layout.axes_to_string(rt.axes)}/"
  cond.all? do |k, v|
    if k == COMMIT_AXIS_KEY && !v.to_s.empty?
      rt.axes[k].to_s.start_with?(v)
    else
      line.include?(v.to_s.empty? ? "#{k}=" : "#{k}=#{v}/")
    end
  end
end

def search(root, msearch_axes)
  roots = Dir["#{root}/**/matrix.json"].sort.map { |f| File.dirname(f) }
  roots.reject! { |d| File.basename(d) =~ /\A\d+\z/ && File.exist?("#{File.dirname(d)}/matrix.json") }
  cache = roots.to_h { |d| [d, DirResultRoot.new(d)] }
  msearch_axes.flat_map { |cond| cache.values.select { |rt| index_match?(rt, cond) } }
end

def compare(args)
  params = { compare_axis_keys: [COMMIT_AXIS_KEY] }
  dirs = []
  msearch_axes = []
  root = nil
  args = args.dup
  # the options as sbin/ncompare's parse_argv sets them
  while (a = args.shift)
    case a
    when '-a' then params[:use_all_stat_keys] = true
    when '-m' then params[:more_stats] = true
    when '-k' then params[:filter_kpi_stat_keys] = true
    when '-p' then params[:perf_profile_threshold] = args.shift.to_f
    when '-c' then params[:compare_axis_keys] = args.shift.split(',')
    when '-s' then msearch_axes << DataStore::Layout.axes_from_string(args.shift)
    when '-o'
      search_axes = DataStore::Layout.axes_from_string(args.shift)
      params[:compare_different_rts] = true if search_axes.many?
      msearch_axes << (msearch_axes[-1] || {}).merge(search_axes)
    when '--root' then root = args.shift
    else dirs << a
    end
  end
  rts = root ? search(root, msearch_axes) : dirs.map { |d| DirResultRoot.new(d) }
  Compare::Comparer.new(params)
                   .set_mresult_roots(rts)
                   .set_sort_mresult_roots(false) # argv order: the first is the base
                   .compare
end

if ARGV == ['--many']
  $stdin.each_line.with_index do |line, i|
    puts "#### #{i}"
    compare(line.split)
  end
else
  compare(ARGV)
end
