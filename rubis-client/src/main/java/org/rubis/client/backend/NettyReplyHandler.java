package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * The one handler of every netty connection (after TLS's): stamps each read of response bytes, then
 * hands it to the connection's session to parse. The stamp is the first thing taken, before any
 * parsing: the first read of a reply is its first byte, the read that completes it its last
 * ({@link Reply}, rules 3 and 4). It keeps no state of its own, so one instance serves every channel.
 */
@ChannelHandler.Sharable
final class NettyReplyHandler extends ChannelInboundHandlerAdapter {

    static final NettyReplyHandler INSTANCE = new NettyReplyHandler();

    private NettyReplyHandler() {}

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long now = System.nanoTime();
        try {
            NettySession c = ctx.channel().attr(NettySession.ATTRIBUTE).get();
            if (c == null || c.conn != ctx.channel() || !(msg instanceof ByteBuf b)) {
                return;
            }
            if (c.firstByte == 0) {
                c.firstByte = now;
            }
            c.lastRead = now;
            c.read(b, ctx.alloc());
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        NettySession c = ctx.channel().attr(NettySession.ATTRIBUTE).get();
        if (c != null && c.conn == ctx.channel()) {
            c.onInactive();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        NettySession c = ctx.channel().attr(NettySession.ATTRIBUTE).get();
        if (c != null && c.conn == ctx.channel() && c.cause == null) {
            c.cause = cause; // classified when the channel goes inactive
        }
        ctx.close();
    }
}
