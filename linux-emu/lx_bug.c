/* SPDX-License-Identifier: GPL-2.0-only */
/* WARN and BUG as Linux reports them: __warn_printk, dump_stack, and lx_emul_bug_trap for the host's invalid-opcode trap. */
/*
 * With CONFIG_BUG, x86 compiles WARN_ON() and BUG() to a ud2 with an
 * entry in the __bug_table section (file, line, flags).  The host's
 * invalid-opcode trap hands the address to lx_emul_bug_trap(), which
 * finds the entry: a WARN is reported and the code goes on after the ud2,
 * as Linux's handle_bug does; a BUG is reported and the host stops the
 * world (the kernel panics, a driver server ends).  The table is where
 * the host's linker script put it (lx_host_bug_table_start).
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include <lx_emul.h>
#include <lx_host.h>

#define LX_UD2_LEN	2

static unsigned long entry_addr(const struct bug_entry *e)
{
	return (unsigned long)&e->bug_addr_disp + e->bug_addr_disp;
}

static const char *entry_file(const struct bug_entry *e)
{
	return (const char *)&e->file_disp + e->file_disp;
}

static struct bug_entry *entry_find(unsigned long ip)
{
	struct bug_entry *e = (struct bug_entry *)lx_host_bug_table_start;
	struct bug_entry *end = (struct bug_entry *)lx_host_bug_table_stop;

	for (; e < end; e++)
		if (entry_addr(e) == ip)
			return e;
	return NULL;
}

static void stack_print(unsigned long ip, unsigned long sp)
{
	pr_warn("CPU: 0 PID: %d Comm: %s\n", current->pid, current->comm);
	pr_warn("Call Trace:\n");
	lx_host_backtrace(ip, sp);
}

void dump_stack_lvl(const char *log_lvl)
{
	unsigned long sp;

	asm volatile("mov %%rsp, %0" : "=r"(sp));
	stack_print(_THIS_IP_, sp);
}

void dump_stack(void)
{
	dump_stack_lvl(KERN_DEFAULT);
}

void __warn_printk(const char *fmt, ...)
{
	va_list args;

	pr_warn(CUT_HERE);
	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

unsigned long lx_emul_bug_trap(unsigned long ip, unsigned long sp)
{
	struct bug_entry *e = entry_find(ip);

	if (e == NULL)
		return 0;
	if (!(e->flags & BUGFLAG_WARNING)) {
		pr_crit(CUT_HERE);
		pr_crit("kernel BUG at %s:%u!\n", entry_file(e), e->line);
		stack_print(ip, sp);
		return 0;
	}
	if (e->flags & BUGFLAG_ONCE) {
		if (e->flags & BUGFLAG_DONE)
			return ip + LX_UD2_LEN;
		e->flags |= BUGFLAG_DONE;
	}
	if (!(e->flags & BUGFLAG_NO_CUT_HERE))
		pr_warn(CUT_HERE);
	pr_warn("WARNING: CPU: 0 PID: %d at %s:%u\n", current->pid,
		entry_file(e), e->line);
	stack_print(ip, sp);
	pr_warn("---[ end trace %016lx ]---\n", ip);
	return ip + LX_UD2_LEN;
}
