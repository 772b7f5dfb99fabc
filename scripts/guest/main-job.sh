#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job, run inside the test-bed VM by "make run". Until the
# comparison tool lands it is a smoke scenario: stock vdpa_sim_net and
# vdpa_sim_batch side by side, one device on each vDPA bus driver.
set -e
. tests/vm/lib/testbed.sh

tb_load_stock
tb_load_batch
tb_dev_add stock0 vdpasim_net vhost_vdpa mac 02:00:00:00:00:01
tb_dev_add stock1 vdpasim_net virtio_vdpa mac 02:00:00:00:00:02
echo "== management devices"
vdpa mgmtdev show
echo "== vDPA devices"
vdpa dev show
echo "== stock0 on vhost_vdpa: $(tb_vhost_chardev stock0)"
echo "== stock1 on virtio_vdpa: $(tb_wait 5 tb_netdev stock1)"
vdpa dev config show
tb_dev_del stock0
tb_dev_del stock1
rmmod vdpa_sim_batch
tb_unload_stock
echo "== clean teardown"
