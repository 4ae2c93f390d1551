#!/usr/bin/env ruby
# Print lkp-tests' own ncompare output for result roots given as directories: lkp's
# Compare engine (lib/compare.rb, lib/stats.rb) unmodified; only the DataStore lookup
# of sbin/ncompare (/lkp/data paths) is replaced by "this directory is the commit's
# result root" (its matrix.json, and the axes of its first N/job.yaml).
#
# usage: LKP_SRC=… compare_dirs.rb [-a] [-m] BASE_DIR HEAD_DIR [HEAD_DIR…]
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

def compare(args)
  params = { compare_axis_keys: [COMMIT_AXIS_KEY] }
  dirs = []
  args.each do |a|
    case a
    when '-a' then params[:use_all_stat_keys] = true
    when '-m' then params[:more_stats] = true
    else dirs << a
    end
  end
  Compare::Comparer.new(params)
                   .set_mresult_roots(dirs.map { |d| DirResultRoot.new(d) })
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
