package io.tollgate.server.rpc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The attempts one upstream connection awaits answers for, by the ids it gave them. The ids are
 * the connection's own counter, so each goes in slot {@code id & mask} of a ring: finding,
 * adding and removing one is one array access, with no hashing and no probing. An id whose slot is
 * taken (by a call that has been waiting since the counter last passed it) is not given out
 * ({@link #taken}); the ring doubles when half full, so that a slot is rarely taken.
 * Confined to the connection's event loop.
 */
final class AttemptsById<A> {

    private static final int INITIAL_CAPACITY = 64;

    private Object[] attempts = new Object[INITIAL_CAPACITY];
    private long[] ids = new long[INITIAL_CAPACITY];
    private int mask = INITIAL_CAPACITY - 1;
    private int size;

    /** Whether {@code id} cannot be given out now: its slot holds another call. */
    boolean taken(long id) {
        return attempts[slot(id)] != null;
    }

    /** Adds {@code attempt} under {@code id}, which MUST NOT be {@link #taken}. */
    void put(long id, A attempt) {
        if (size + 1 > attempts.length / 2) {
            grow();
        }
        int slot = slot(id);
        if (attempts[slot] != null) {
            throw new IllegalStateException("id " + id + " is taken by id " + ids[slot]);
        }
        attempts[slot] = attempt;
        ids[slot] = id;
        size++;
    }

    /** The attempt under {@code id}, or null. */
    @SuppressWarnings("unchecked")
    A get(long id) {
        int slot = slot(id);
        return attempts[slot] != null && ids[slot] == id ? (A) attempts[slot] : null;
    }

    /** Removes and returns the attempt under {@code id}, or null when there is none. */
    A remove(long id) {
        A attempt = get(id);
        if (attempt != null) {
            attempts[slot(id)] = null;
            size--;
        }
        return attempt;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Removes every attempt and returns them. */
    @SuppressWarnings("unchecked")
    List<A> removeAll() {
        List<A> all = new ArrayList<>(size);
        for (Object attempt : attempts) {
            if (attempt != null) {
                all.add((A) attempt);
            }
        }
        Arrays.fill(attempts, null);
        size = 0;
        return all;
    }

    private int slot(long id) {
        return (int) id & mask;
    }

    /**
     * Doubles the ring. Two ids in distinct slots of a ring stay in distinct slots of the doubled
     * one, so moving them never collides.
     */
    private void grow() {
        Object[] oldAttempts = attempts;
        long[] oldIds = ids;
        attempts = new Object[oldAttempts.length * 2];
        ids = new long[oldAttempts.length * 2];
        mask = attempts.length - 1;
        for (int i = 0; i < oldAttempts.length; i++) {
            if (oldAttempts[i] != null) {
                int slot = slot(oldIds[i]);
                attempts[slot] = oldAttempts[i];
                ids[slot] = oldIds[i];
            }
        }
    }
}
